/* Built from server/dashboard/app by npm run build:dashboard. Do not edit. */
var B,$,be,Xe,T,de,ve,ye,Y,j,D,ge,ne,ee,te,Ze,J={},q=[],Ye=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,V=Array.isArray;function C(t,e){for(var n in e)t[n]=e[n];return t}function oe(t){t&&t.parentNode&&t.parentNode.removeChild(t)}function G(t,e,n){var s,i,o,r={};for(o in e)o=="key"?s=e[o]:o=="ref"?i=e[o]:r[o]=e[o];if(arguments.length>2&&(r.children=arguments.length>3?B.call(arguments,2):n),typeof t=="function"&&t.defaultProps!=null)for(o in t.defaultProps)r[o]===void 0&&(r[o]=t.defaultProps[o]);return O(t,r,s,i,null)}function O(t,e,n,s,i){var o={type:t,props:e,key:n,ref:s,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:i??++be,__i:-1,__u:0};return i==null&&$.vnode!=null&&$.vnode(o),o}function K(t){return t.children}function H(t,e){this.props=t,this.context=e}function I(t,e){if(e==null)return t.__?I(t.__,t.__i+1):null;for(var n;e<t.__k.length;e++)if((n=t.__k[e])!=null&&n.__e!=null)return n.__e;return typeof t.type=="function"?I(t):null}function et(t){if(t.__P&&t.__d){var e=t.__v,n=e.__e,s=[],i=[],o=C({},e);o.__v=e.__v+1,$.vnode&&$.vnode(o),se(t.__P,o,e,t.__n,t.__P.namespaceURI,32&e.__u?[n]:null,s,n??I(e),!!(32&e.__u),i),o.__v=e.__v,o.__.__k[o.__i]=o,xe(s,o,i),e.__e=e.__=null,o.__e!=n&&$e(o)}}function $e(t){if((t=t.__)!=null&&t.__c!=null)return t.__e=t.__c.base=null,t.__k.some(function(e){if(e!=null&&e.__e!=null)return t.__e=t.__c.base=e.__e}),$e(t)}function fe(t){(!t.__d&&(t.__d=!0)&&T.push(t)&&!W.__r++||de!=$.debounceRendering)&&((de=$.debounceRendering)||ve)(W)}function W(){try{for(var t,e=1;T.length;)T.length>e&&T.sort(ye),t=T.shift(),e=T.length,et(t)}finally{T.length=W.__r=0}}function ke(t,e,n,s,i,o,r,_,u,l,c){var m,a,f,p,g,d,b=s&&s.__k||q,h=e.length;for(u=tt(n,e,b,u,h),m=0;m<h;m++)(f=n.__k[m])!=null&&(a=f.__i!=-1&&b[f.__i]||J,f.__i=m,d=se(t,f,a,i,o,r,_,u,l,c),p=f.__e,f.ref&&a.ref!=f.ref&&(a.ref&&re(a.ref,null,f),c.push(f.ref,f.__c||p,f)),g==null&&p!=null&&(g=p),4&f.__u?(u=we(f,u,t),a.__e&&(a.__e=null)):typeof f.type=="function"&&d!==void 0?u=d:p&&(u=p.nextSibling),f.__u&=-7);return n.__e=g,u}function tt(t,e,n,s,i){var o,r,_,u,l,c=n.length,m=c,a=0;for(t.__k=new Array(i),o=0;o<i;o++)(r=e[o])!=null&&typeof r!="boolean"&&typeof r!="function"?(typeof r=="string"||typeof r=="number"||typeof r=="bigint"||r.constructor==String?r=t.__k[o]=O(null,r,null,null,null):V(r)?r=t.__k[o]=O(K,{children:r},null,null,null):r.constructor===void 0&&r.__b>0?r=t.__k[o]=O(r.type,r.props,r.key,r.ref?r.ref:null,r.__v):t.__k[o]=r,u=o+a,r.__=t,r.__b=t.__b+1,_=null,(l=r.__i=nt(r,n,u,m))!=-1&&(m--,(_=n[l])&&(_.__u|=2)),_==null||_.__v==null?(l==-1&&(i>c?a--:i<c&&a++),typeof r.type!="function"&&(r.__u|=4)):l!=u&&(l==u-1?a--:l==u+1?a++:(l>u?a--:a++,r.__u|=4))):t.__k[o]=null;if(m)for(o=0;o<c;o++)(_=n[o])!=null&&(2&_.__u)==0&&(_.__e==s&&(s=I(_)),Ce(_,_));return s}function we(t,e,n){var s,i;if(typeof t.type=="function"){for(s=t.__k,i=0;s&&i<s.length;i++)s[i]&&(s[i].__=t,e=we(s[i],e,n));return e}t.__e!=e&&(e&&t.type&&!e.parentNode&&(e=I(t)),e=n.insertBefore(t.__e,e||null));do e=e&&e.nextSibling;while(e!=null&&e.nodeType==8);return e}function nt(t,e,n,s){var i,o,r,_=t.key,u=t.type,l=e[n],c=l!=null&&(2&l.__u)==0;if(l===null&&_==null||c&&_==l.key&&u==l.type)return n;if(s>(c?1:0)){for(i=n-1,o=n+1;i>=0||o<e.length;)if((l=e[r=i>=0?i--:o++])!=null&&(2&l.__u)==0&&_==l.key&&u==l.type)return r}return-1}function me(t,e,n){e[0]=="-"?t.setProperty(e,n??""):t[e]=n==null?"":typeof n!="number"||Ye.test(e)?n:n+"px"}function F(t,e,n,s,i){var o,r;e:if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof s=="string"&&(t.style.cssText=s=""),s)for(e in s)n&&e in n||me(t.style,e,"");if(n)for(e in n)s&&n[e]==s[e]||me(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")o=e!=(e=e.replace(ge,"$1")),r=e.toLowerCase(),e=r in t||e=="onFocusOut"||e=="onFocusIn"?r.slice(2):e.slice(2),t.l||(t.l={}),t.l[e+o]=n,n?s?n[D]=s[D]:(n[D]=ne,t.addEventListener(e,o?te:ee,o)):t.removeEventListener(e,o?te:ee,o);else{if(i=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{t[e]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n))}}function he(t){return function(e){if(this.l){var n=this.l[e.type+t];if(e[j]==null)e[j]=ne++;else if(e[j]<n[D])return;return n($.event?$.event(e):e)}}}function se(t,e,n,s,i,o,r,_,u,l){var c,m,a,f,p,g,d,b,h,x,R,A,N,pe,U,Z,E=e.type;if(e.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),o=[_=e.__e=n.__e]),(c=$.__b)&&c(e);e:if(typeof E=="function"){m=r.length;try{if(h=e.props,x=E.prototype&&E.prototype.render,R=(c=E.contextType)&&s[c.__c],A=c?R?R.props.value:c.__:s,n.__c?b=(a=e.__c=n.__c).__=a.__E:(x?e.__c=a=new E(h,A):(e.__c=a=new H(h,A),a.constructor=E,a.render=st),R&&R.sub(a),a.state||(a.state={}),a.__n=s,f=a.__d=!0,a.__h=[],a._sb=[]),x&&a.__s==null&&(a.__s=a.state),x&&E.getDerivedStateFromProps!=null&&(a.__s==a.state&&(a.__s=C({},a.__s)),C(a.__s,E.getDerivedStateFromProps(h,a.__s))),p=a.props,g=a.state,a.__v=e,f)x&&E.getDerivedStateFromProps==null&&a.componentWillMount!=null&&a.componentWillMount(),x&&a.componentDidMount!=null&&a.__h.push(a.componentDidMount);else{if(x&&E.getDerivedStateFromProps==null&&h!==p&&a.componentWillReceiveProps!=null&&a.componentWillReceiveProps(h,A),e.__v==n.__v||!a.__e&&a.shouldComponentUpdate!=null&&a.shouldComponentUpdate(h,a.__s,A)===!1){e.__v!=n.__v&&(a.props=h,a.state=a.__s,a.__d=!1),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(M){M&&(M.__=e)}),q.push.apply(a.__h,a._sb),a._sb=[],a.__h.length&&r.push(a),_=I(n);break e}a.componentWillUpdate!=null&&a.componentWillUpdate(h,a.__s,A),x&&a.componentDidUpdate!=null&&a.__h.push(function(){a.componentDidUpdate(p,g,d)})}if(a.context=A,a.props=h,a.__P=t,a.__e=!1,N=$.__r,pe=0,x)a.state=a.__s,a.__d=!1,N&&N(e),c=a.render(a.props,a.state,a.context),q.push.apply(a.__h,a._sb),a._sb=[];else do a.__d=!1,N&&N(e),c=a.render(a.props,a.state,a.context),a.state=a.__s;while(a.__d&&++pe<25);a.state=a.__s,a.getChildContext!=null&&(s=C(C({},s),a.getChildContext())),x&&!f&&a.getSnapshotBeforeUpdate!=null&&(d=a.getSnapshotBeforeUpdate(p,g)),U=c!=null&&c.type===K&&c.key==null?Ee(c.props.children):c,_=ke(t,V(U)?U:[U],e,n,s,i,o,r,_,u,l),a.base=e.__e,e.__u&=-161,a.__h.length&&r.push(a),b&&(a.__E=a.__=null)}catch(M){if(r.length=m,e.__v=null,u||o!=null){if(M.then){for(e.__u|=u?160:128;_&&_.nodeType==8&&_.nextSibling;)_=_.nextSibling;o!=null&&(o[o.indexOf(_)]=null),e.__e=_}else if(o!=null)for(Z=o.length;Z--;)oe(o[Z])}else e.__e=n.__e;e.__k==null&&(e.__k=n.__k||[]),M.then||Se(e),$.__e(M,e,n)}}else o==null&&e.__v==n.__v?(e.__k=n.__k,e.__e=n.__e):_=e.__e=ot(n.__e,e,n,s,i,o,r,u,l);return(c=$.diffed)&&c(e),128&e.__u?void 0:_}function Se(t){t&&(t.__c&&(t.__c.__e=!0),t.__k&&t.__k.some(Se))}function xe(t,e,n){for(var s=0;s<n.length;s++)re(n[s],n[++s],n[++s]);$.__c&&$.__c(e,t),t.some(function(i){try{t=i.__h,i.__h=[],t.some(function(o){o.call(i)})}catch(o){$.__e(o,i.__v)}})}function Ee(t){return typeof t!="object"||t==null||t.__b>0?t:V(t)?t.map(Ee):t.constructor!==void 0?null:C({},t)}function ot(t,e,n,s,i,o,r,_,u){var l,c,m,a,f,p,g,d=n.props||J,b=e.props,h=e.type;if(h=="svg"?i="http://www.w3.org/2000/svg":h=="math"?i="http://www.w3.org/1998/Math/MathML":i||(i="http://www.w3.org/1999/xhtml"),o!=null){for(l=0;l<o.length;l++)if((f=o[l])&&"setAttribute"in f==!!h&&(h?f.localName==h:f.nodeType==3)){t=f,o[l]=null;break}}if(t==null){if(h==null)return document.createTextNode(b);t=document.createElementNS(i,h,b.is&&b),_&&($.__m&&$.__m(e,o),_=!1),o=null}if(h==null)d===b||_&&t.data==b||(t.data=b);else{if(o=h=="textarea"&&b.defaultValue!=null?null:o&&B.call(t.childNodes),!_&&o!=null)for(d={},l=0;l<t.attributes.length;l++)d[(f=t.attributes[l]).name]=f.value;for(l in d)f=d[l],l=="dangerouslySetInnerHTML"?m=f:l=="children"||l in b||l=="value"&&"defaultValue"in b||l=="checked"&&"defaultChecked"in b||F(t,l,null,f,i);for(l in b)f=b[l],l=="children"?a=f:l=="dangerouslySetInnerHTML"?c=f:l=="value"?p=f:l=="checked"?g=f:_&&typeof f!="function"||d[l]===f||F(t,l,f,d[l],i);if(c)_||m&&(c.__html==m.__html||c.__html==t.innerHTML)||(t.innerHTML=c.__html),e.__k=[];else if(m&&(t.innerHTML=""),ke(e.type=="template"?t.content:t,V(a)?a:[a],e,n,s,h=="foreignObject"?"http://www.w3.org/1999/xhtml":i,o,r,o?o[0]:n.__k&&I(n,0),_,u),o!=null)for(l=o.length;l--;)oe(o[l]);_&&h!="textarea"||(l="value",h=="progress"&&p==null?t.removeAttribute("value"):p!=null&&(p!==t[l]||h=="progress"&&!p||h=="option"&&p!=d[l])&&F(t,l,p,d[l],i),l="checked",g!=null&&g!=t[l]&&F(t,l,g,d[l],i))}return t}function re(t,e,n){try{if(typeof t=="function"){var s=typeof t.__u=="function";s&&t.__u(),s&&e==null||(t.__u=t(e))}else t.current=e}catch(i){$.__e(i,n)}}function Ce(t,e,n){var s,i;if($.unmount&&$.unmount(t),(s=t.ref)&&(s.current&&s.current!=t.__e||re(s,null,e)),(s=t.__c)!=null){if(s.componentWillUnmount)try{s.componentWillUnmount()}catch(o){$.__e(o,e)}s.base=s.__P=s.__n=null}if(s=t.__k)for(i=0;i<s.length;i++)s[i]&&Ce(s[i],e,n||typeof t.type!="function");n||oe(t.__e),t.__c=t.__=t.__e=void 0}function st(t,e,n){return this.constructor(t,n)}function ae(t,e,n){var s,i,o,r;e==document&&(e=document.documentElement),$.__&&$.__(t,e),i=(s=typeof n=="function")?null:n&&n.__k||e.__k,o=[],r=[],se(e,t=(!s&&n||e).__k=G(K,null,[t]),i||J,J,e.namespaceURI,!s&&n?[n]:i?null:e.firstChild?B.call(e.childNodes):null,o,!s&&n?n:i?i.__e:e.firstChild,s,r),xe(o,t,r),t.props.children=null}B=q.slice,$={__e:function(t,e,n,s){for(var i,o,r;e=e.__;)if((i=e.__c)&&!i.__)try{if((o=i.constructor)&&o.getDerivedStateFromError!=null&&(i.setState(o.getDerivedStateFromError(t)),r=i.__d),i.componentDidCatch!=null&&(i.componentDidCatch(t,s||{}),r=i.__d),r)return i.__E=i}catch(_){t=_}throw t}},be=0,Xe=function(t){return t!=null&&t.constructor===void 0},H.prototype.setState=function(t,e){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=C({},this.state),typeof t=="function"&&(t=t(C({},n),this.props)),t&&C(n,t),t!=null&&this.__v&&(e&&this._sb.push(e),fe(this))},H.prototype.forceUpdate=function(t){this.__v&&(this.__e=!0,t&&this.__h.push(t),fe(this))},H.prototype.render=K,T=[],ve=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,ye=function(t,e){return t.__v.__b-e.__v.__b},W.__r=0,Y=Math.random().toString(8),j="__d"+Y,D="__a"+Y,ge=/(PointerCapture)$|Capture$/i,ne=0,ee=he(!1),te=he(!0),Ze=0;var Te=function(t,e,n,s){var i;e[0]=0;for(var o=1;o<e.length;o++){var r=e[o++],_=e[o]?(e[0]|=r?1:2,n[e[o++]]):e[++o];r===3?s[0]=_:r===4?s[1]=Object.assign(s[1]||{},_):r===5?(s[1]=s[1]||{})[e[++o]]=_:r===6?s[1][e[++o]]+=_+"":r?(i=t.apply(_,Te(t,_,n,["",null])),s.push(i),_[0]?e[0]|=2:(e[o-2]=0,e[o]=i)):s.push(_)}return s},Pe=new Map;function Ae(t){var e=Pe.get(this);return e||(e=new Map,Pe.set(this,e)),(e=Te(this,e.get(t)||(e.set(t,e=(function(n){for(var s,i,o=1,r="",_="",u=[0],l=function(a){o===1&&(a||(r=r.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,a,r):o===3&&(a||r)?(u.push(3,a,r),o=2):o===2&&r==="..."&&a?u.push(4,a,0):o===2&&r&&!a?u.push(5,0,!0,r):o>=5&&((r||!a&&o===5)&&(u.push(o,0,r,i),o=6),a&&(u.push(o,a,0,i),o=6)),r=""},c=0;c<n.length;c++){c&&(o===1&&l(),l(c));for(var m=0;m<n[c].length;m++)s=n[c][m],o===1?s==="<"?(l(),u=[u],o=3):r+=s:o===4?r==="--"&&s===">"?(o=1,r=""):r=s+r[0]:_?s===_?_="":r+=s:s==='"'||s==="'"?_=s:s===">"?(l(),o=1):o&&(s==="="?(o=5,i=r,r=""):s==="/"&&(o<5||n[c][m+1]===">")?(l(),o===3&&(u=u[0]),o=u,(u=u[0]).push(2,0,o),o=0):s===" "||s==="	"||s===`
`||s==="\r"?(l(),o=2):r+=s),o===3&&r==="!--"&&(o=4,u=u[0])}return l(),u})(t)),e),arguments,[])).length>1?e:e[0]}var v=Ae.bind(G);var L,k,ie,Ie,le=0,Fe=[],w=$,Me=w.__b,Re=w.__r,Ne=w.diffed,De=w.__c,He=w.unmount,Le=w.__;function ce(t,e){w.__h&&w.__h(k,t,le||e),le=0;var n=k.__H||(k.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function y(t){return le=1,rt(Oe,t)}function rt(t,e,n){var s=ce(L++,2);if(s.t=t,!s.__c&&(s.__=[n?n(e):Oe(void 0,e),function(_){var u=s.__N?s.__N[0]:s.__[0],l=s.t(u,_);u!==l&&(s.__N=[l,s.__[1]],s.__c.setState({}))}],s.__c=k,!k.__f)){var i=function(_,u,l){if(!s.__c.__H)return!0;var c=!1,m=s.__c.props!==_;if(s.__c.__H.__.some(function(f){if(f.__N){c=!0;var p=f.__[0];f.__=f.__N,f.__N=void 0,p!==f.__[0]&&(m=!0)}}),o){var a=o.call(this,_,u,l);return c?a||m:a}return!c||m};k.__f=!0;var o=k.shouldComponentUpdate,r=k.componentWillUpdate;k.componentWillUpdate=function(_,u,l){if(this.__e){var c=o;o=void 0,i(_,u,l),o=c}r&&r.call(this,_,u,l)},k.shouldComponentUpdate=i}return s.__N||s.__}function S(t,e){var n=ce(L++,3);!w.__s&&je(n.__H,e)&&(n.__=t,n.u=e,k.__H.__h.push(n))}function Q(t,e){var n=ce(L++,7);return je(n.__H,e)&&(n.__=t(),n.__H=e,n.__h=t),n.__}function at(){for(var t;t=Fe.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(z),e.__h.some(_e),e.__h=[]}catch(n){e.__h=[],w.__e(n,t.__v)}}}w.__b=function(t){k=null,Me&&Me(t)},w.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),Le&&Le(t,e)},w.__r=function(t){Re&&Re(t),L=0;var e=(k=t.__c).__H;e&&(ie===k?(e.__h=[],k.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(e.__h.some(z),e.__h.some(_e),e.__h=[],L=0)),ie=k},w.diffed=function(t){Ne&&Ne(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&(Fe.push(e)!==1&&Ie===w.requestAnimationFrame||((Ie=w.requestAnimationFrame)||it)(at)),e.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),ie=k=null},w.__c=function(t,e){e.some(function(n){try{n.__h.some(z),n.__h=n.__h.filter(function(s){return!s.__||_e(s)})}catch(s){e.some(function(i){i.__h&&(i.__h=[])}),e=[],w.__e(s,n.__v)}}),De&&De(t,e)},w.unmount=function(t){He&&He(t);var e,n=t.__c;n&&n.__H&&(n.__H.__.some(function(s){try{z(s)}catch(i){e=i}}),n.__H=void 0,e&&w.__e(e,n.__v))};var Ue=typeof requestAnimationFrame=="function";function it(t){var e,n=function(){clearTimeout(s),Ue&&cancelAnimationFrame(e),setTimeout(t)},s=setTimeout(n,35);Ue&&(e=requestAnimationFrame(n))}function z(t){var e=k,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),k=e}function _e(t){var e=k;t.__c=t.__(),k=e}function je(t,e){return!t||t.length!==e.length||e.some(function(n,s){return n!==t[s]})}function Oe(t,e){return typeof e=="function"?e(t):e}function Je(t){async function e(n,s={}){let i={"x-sandbox-session":t};s.body!==void 0&&(i["content-type"]="application/json");let o=await fetch(n,{method:s.method??(s.body===void 0?"GET":"POST"),headers:i,...s.body===void 0?{}:{body:JSON.stringify(s.body)}}),r=await o.text();return{status:o.status,ok:o.ok,body:r?JSON.parse(r):void 0}}return{session:t,control:(n,s)=>e(n,s),operation:(n,s)=>e(`..${n}`,s)}}function P(t){let e=t.body;return e?.details??[e?.message??`Failed with status ${t.status}`]}function qe(t){let{api:e}=t,[n,s]=y(),[i,o]=y(0),[r,_]=y(0),[u,l]=y("901"),[c,m]=y(""),[a,f]=y(""),p=d=>{if(!d.ok)return f(P(d).join("; "));f(""),s(d.body),o(Date.now())};S(()=>{e.control("clock").then(p);let d=setInterval(()=>_(b=>b+1),1e3);return()=>clearInterval(d)},[e]);let g=n?new Date(Date.parse(n.now)+(Date.now()-i)):void 0;return v`
    <section aria-labelledby="clock-heading" class="panel">
      <h2 id="clock-heading">Clock</h2>
      <p>
        Session time: <time data-testid="clock-now" datetime=${g?.toISOString()}>${g?.toISOString().slice(0,19).replace("T"," ")} UTC</time>
        ${n&&(n.real?" (real time)":v` (<span data-testid="clock-offset">${n.offsetSeconds>0?"+":""}${n.offsetSeconds} s</span> from real time)`)}
      </p>
      <form class="row" onSubmit=${async d=>{d.preventDefault(),p(await e.control("clock",{body:{advanceSeconds:Number(u)}}))}}>
        <label>Advance by (seconds)
          <input type="number" step="1" value=${u} onInput=${d=>l(d.target.value)} />
        </label>
        <button type="submit">Advance clock</button>
      </form>
      <form class="row" onSubmit=${async d=>{d.preventDefault(),p(await e.control("clock",{body:{now:c}}))}}>
        <label>Set to (ISO 8601)
          <input placeholder="2026-06-01T09:00:00Z" value=${c} onInput=${d=>m(d.target.value)} />
        </label>
        <button type="submit">Set clock</button>
        <button type="button" onClick=${async()=>p(await e.control("clock",{method:"DELETE"}))}>Back to real time</button>
      </form>
      ${a&&v`<p role="alert" class="problem">${a}</p>`}
    </section>
  `}var X=20;function lt(t){return t==null?"":typeof t=="object"?JSON.stringify(t):String(t)}function We(t){let{api:e}=t,[n,s]=y({}),[i,o]=y(),[r,_]=y([]),[u,l]=y(""),[c,m]=y(0);S(()=>{e.control("collections").then(b=>s(b.body))},[e]),S(()=>{i&&(e.control(`collections/${i}`).then(b=>_(b.body)),m(0))},[e,i]);let a=Q(()=>r.map(b=>JSON.stringify(b).toLowerCase()),[r]),f=r.filter((b,h)=>a[h].includes(u.trim().toLowerCase())),p=Math.max(1,Math.ceil(f.length/X)),g=f.slice(c*X,c*X+X),d=r[0]?Object.keys(r[0]).slice(0,7):[];return v`
    <section aria-labelledby="collections-heading" class="panel">
      <h2 id="collections-heading">Collections</h2>
      <ul class="collections">
        ${Object.entries(n).map(([b,h])=>v`<li>
            <button type="button" aria-pressed=${b===i} onClick=${()=>o(b)}>
              ${b} <span class="count">${h}</span>
            </button>
          </li>`)}
      </ul>
      ${i&&v`<div>
          <label>Search ${i}
            <input type="search" value=${u} onInput=${b=>{l(b.target.value),m(0)}} />
          </label>
          <div class="scroll">
            <table>
              <caption>${i}: ${f.length} of ${r.length} records</caption>
              <thead><tr>${d.map(b=>v`<th scope="col">${b}</th>`)}</tr></thead>
              <tbody>
                ${g.map(b=>v`<tr>${d.map(h=>v`<td>${lt(b[h])}</td>`)}</tr>`)}
              </tbody>
            </table>
          </div>
          <nav class="row" aria-label="Pages">
            <button type="button" disabled=${c===0} onClick=${()=>m(c-1)}>Previous page</button>
            <span>Page ${c+1} of ${p}</span>
            <button type="button" disabled=${c+1>=p} onClick=${()=>m(c+1)}>Next page</button>
          </nav>
        </div>`}
    </section>
  `}var _t=[400,401,403,404,409,413,415,500];function ct(t){let e=t.networkError?"network error":t.example?`example ${t.example}`:t.status?`status ${t.status}`:"normal answer",n=t.delayMs||t.jitterMs?`after ${t.delayMs??0}+${t.jitterMs??0} ms `:"",s=t.remaining!==void 0?`, ${t.remaining} call(s) left`:t.probability!==void 0?`, p=${t.probability}`:"";return`${n}${e}${t.persona?` for ${t.persona}`:""}${s}`}var ut=t=>t.target.value;function Be(t){let{api:e}=t,[n,s]=y([]),[i,o]=y([]),[r,_]=y({method:"*",path:"/bookings/:id/decline",persona:"",kind:"status",status:"500",example:"",delayMs:"",times:"",probability:""}),[u,l]=y([]),c=p=>g=>_({...r,[p]:ut(g)}),m=async()=>s((await e.control("faults")).body);S(()=>{m();let p=setInterval(()=>{m()},2e3);return e.control("personas").then(g=>o(g.body.map(d=>d.key))),()=>clearInterval(p)},[e]);let a=async p=>{p.preventDefault();let g={method:r.method,path:r.path};r.persona&&(g.persona=r.persona),r.kind==="status"&&(g.status=Number(r.status)),r.kind==="example"&&(g.example=r.example),r.kind==="networkError"&&(g.networkError=!0),r.delayMs!==""&&(g.delayMs=Number(r.delayMs)),r.times!==""&&(g.times=Number(r.times)),r.probability!==""&&(g.probability=Number(r.probability));let d=await e.control("faults",{body:g});l(d.ok?[]:P(d)),await m()},f=async p=>{await e.control(`faults/${encodeURIComponent(p)}`,{method:"DELETE"}),await m()};return v`
    <section aria-labelledby="faults-heading" class="panel">
      <h2 id="faults-heading">Fault rules</h2>
      ${n.length===0?v`<p>No fault rules: every request gets its normal answer.</p>`:null}
      <ul class="rules">
        ${n.map(p=>v`<li>
            <code>${p.id}</code> ${p.method} <code>${p.path}</code>: ${ct(p)}
            <button type="button" aria-label=${`Remove rule ${p.id}`} onClick=${()=>f(p.id)}>Remove</button>
          </li>`)}
      </ul>
      <form class="grid" onSubmit=${a} aria-label="Add a fault rule">
        <div class="field"><label for="fault-method">Method</label>
          <select id="fault-method" value=${r.method} onChange=${c("method")}>
            ${["*","GET","POST"].map(p=>v`<option value=${p}>${p==="*"?"any":p}</option>`)}
          </select>
        </div>
        <label>Path pattern <input value=${r.path} onInput=${c("path")} required /></label>
        <div class="field"><label for="fault-persona">Persona</label>
          <select id="fault-persona" value=${r.persona} onChange=${c("persona")}>
            <option value="">anyone</option>
            ${i.map(p=>v`<option value=${p}>${p}</option>`)}
          </select>
        </div>
        <div class="field"><label for="fault-answer">Answer</label>
          <select id="fault-answer" value=${r.kind} onChange=${c("kind")}>
            <option value="status">an error status</option>
            <option value="example">a recorded example</option>
            <option value="networkError">a network error</option>
            <option value="delay">the normal answer, delayed</option>
          </select>
        </div>
        ${r.kind==="status"&&v`<div class="field"><label for="fault-status">Status</label>
          <select id="fault-status" value=${r.status} onChange=${c("status")}>${_t.map(p=>v`<option value=${p}>${p}</option>`)}</select>
        </div>`}
        ${r.kind==="example"&&v`<label>Example name <input value=${r.example} onInput=${c("example")} /></label>`}
        <label>Delay (ms) <input type="number" min="0" max="60000" value=${r.delayMs} onInput=${c("delayMs")} /></label>
        <label>Times <input type="number" min="1" value=${r.times} onInput=${c("times")} /></label>
        <label>Probability <input type="number" min="0" max="1" step="0.05" value=${r.probability} onInput=${c("probability")} /></label>
        <button type="submit">Add rule</button>
      </form>
      ${u.length>0&&v`<ul role="alert" class="problem">${u.map(p=>v`<li>${p}</li>`)}</ul>`}
    </section>
  `}var Ve=300;function Ge(t){let{api:e}=t,[n,s]=y([]),[i,o]=y(!1);return S(()=>{let _=!1;e.control("requests").then(l=>{_||s(c=>[...c,...l.body.reverse()].slice(0,Ve))});let u=new EventSource(`events?session=${encodeURIComponent(e.session)}`);return u.addEventListener("open",()=>o(!0)),u.addEventListener("error",()=>o(!1)),u.addEventListener("requests",l=>{let c=JSON.parse(l.data);s(m=>[...c.reverse(),...m].slice(0,Ve))}),()=>{_=!0,u.close()}},[e]),v`
    <section aria-labelledby="journal-heading" class="panel">
      <h2 id="journal-heading">Requests <span class=${i?"live on":"live"}>${i?"live":"offline"}</span></h2>
      <button type="button" onClick=${async()=>{await e.control("requests",{method:"DELETE"}),s([])}}>Clear journal</button>
      <div class="scroll">
        <table data-testid="journal">
          <caption class="visually-hidden">Requests of this session, newest first</caption>
          <thead><tr>
            <th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th>
            <th scope="col">Persona</th><th scope="col">ms</th><th scope="col">dryRun</th><th scope="col">Fault</th>
          </tr></thead>
          <tbody>
            ${n.map(_=>v`<tr class=${_.fault?"faulted":""}>
                <td>${_.time.slice(11,19)}</td>
                <td><code>${_.method} ${_.path}</code></td>
                <td class=${`status s${String(_.status)[0]}`}>${_.status===0?"network error":_.status}</td>
                <td>${_.persona??""}</td>
                <td>${_.durationMs.toFixed(1)}</td>
                <td>${_.dryRun===null?"":String(_.dryRun)}</td>
                <td>${_.fault??""}</td>
              </tr>`)}
          </tbody>
        </table>
      </div>
    </section>
  `}function ue(t){let[e,n]=y(!1);return v`<button type="button" onClick=${async()=>{try{await navigator.clipboard.writeText(t.text),n(!0)}catch{n(!1)}}}>${e?"Copied":t.label}</button>`}function Ke(t){let{api:e}=t,[n,s]=y([]),[i,o]=y(),[r,_]=y("");S(()=>{e.control("personas").then(l=>s(l.body))},[e]);let u=async l=>{_("");let c=await e.operation("/auth/idp/complete",{body:{code:l.idpCode}});if(!c.ok)return _(P(c).join("; "));let m=await e.operation("/auth/refresh?dryRun=true",{body:{refreshToken:l.refreshToken}});if(!m.ok)return _(P(m).join("; "));o({persona:l,accessToken:m.body.accessToken})};return v`
    <section aria-labelledby="personas-heading" class="panel">
      <h2 id="personas-heading">Personas</h2>
      <table>
        <caption class="visually-hidden">Personas of every scenario</caption>
        <thead><tr><th scope="col">Key</th><th scope="col">Name</th><th scope="col">Roles</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          ${n.map(l=>v`<tr>
              <th scope="row"><code>${l.key}</code></th>
              <td>${l.displayName}</td>
              <td>${l.roles.join(", ")}</td>
              <td><button type="button" aria-label=${`Sign in as ${l.key}`} onClick=${()=>u(l)}>Sign in</button></td>
            </tr>`)}
        </tbody>
      </table>
      ${r&&v`<p role="alert" class="problem">${r}</p>`}
      <div role="status" class="signed-in">
        ${i&&v`<p>Signed in as <strong>${i.persona.displayName}</strong> (${i.persona.key}); the browser now holds its <code>refresh_token</code> cookie.</p>
          <label>Access token (15 minutes on the session clock)
            <textarea readonly rows="3" value=${i.accessToken}></textarea>
          </label>
          <div class="row">
            <${ue} label="Copy access token" text=${i.accessToken} />
            <${ue} label="Copy refresh token" text=${i.persona.refreshToken} />
            <${ue} label="Copy Authorization header" text=${`Bearer ${i.accessToken}`} />
          </div>`}
      </div>
    </section>
  `}function ze(t){let{api:e}=t,[n,s]=y([]),[i,o]=y([]),[r,_]=y(e.session),[u,l]=y(""),[c,m]=y(""),[a,f]=y(""),p=async()=>{let[d,b]=await Promise.all([e.control("sessions"),e.control("scenarios")]);s(d.body),o(b.body);let h=d.body.find(x=>x.id===e.session);h&&(l(h.scenario),m(String(h.seed)))};S(()=>{_(e.session),p()},[e]);let g=async d=>{d.preventDefault();let b={scenario:u};c!==""&&(b.seed=Number(c));let h=await e.control("reset",{body:b});f(h.ok?`Session ${h.body.session} reset to ${h.body.scenario} (seed ${h.body.seed})`:P(h).join("; ")),await p(),t.onReset()};return v`
    <section aria-labelledby="session-heading" class="panel">
      <h2 id="session-heading">Session</h2>
      <form class="row" onSubmit=${d=>{d.preventDefault(),t.onSession(r.trim()||"default")}}>
        <label>Session id
          <input name="session" list="session-ids" value=${r}
            onInput=${d=>_(d.target.value)} />
        </label>
        <datalist id="session-ids">
          ${n.map(d=>v`<option value=${d.id}></option>`)}
        </datalist>
        <button type="submit">Open session</button>
      </form>
      <form class="row" onSubmit=${g}>
        <div class="field"><label for="session-scenario">Scenario</label>
          <select id="session-scenario" value=${u} onChange=${d=>l(d.target.value)}>
            ${i.map(d=>v`<option value=${d.name} title=${d.description}>${d.name}</option>`)}
          </select>
        </div>
        <label>Seed
          <input type="number" min="0" step="1" value=${c}
            onInput=${d=>m(d.target.value)} />
        </label>
        <button type="submit">Reset session</button>
      </form>
      <p role="status" class="status">${a}</p>
    </section>
  `}function pt(){let t=new URLSearchParams(location.search).get("session")||"default",[e,n]=y(t),[s,i]=y(0),o=Q(()=>Je(e),[e]),r=u=>{let l=new URL(location.href);l.searchParams.set("session",u),history.replaceState(null,"",l),n(u)},_=`${e}#${s}`;return v`
    <header>
      <h1>Platform API sandbox</h1>
      <nav aria-label="Links"><a href="docs">API reference</a> · <a href="openapi.json">openapi.json</a></nav>
    </header>
    <main>
      <${ze} api=${o} onSession=${r} onReset=${()=>i(u=>u+1)} />
      <div class="columns">
        <div>
          <${Ke} key=${_} api=${o} />
          <${qe} key=${_} api=${o} />
          <${Be} key=${_} api=${o} />
        </div>
        <div>
          <${Ge} key=${_} api=${o} />
          <${We} key=${_} api=${o} />
        </div>
      </div>
    </main>
  `}var Qe=document.getElementById("dashboard");Qe.textContent="";ae(v`<${pt} />`,Qe);
