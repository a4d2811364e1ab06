// A module that uses faker's Faker class with a locale of its own, as the sandbox does.
import { Faker } from '@faker-js/faker'

const faker = new Faker({ locale: [{ person: { first_name: ['Ada'] } }], seed: 1 })
if (faker.person.firstName() !== 'Ada') throw new Error('Failed to seed the faker')

export { faker }
